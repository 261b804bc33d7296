// Placeholder until the SIWACore work lands.
