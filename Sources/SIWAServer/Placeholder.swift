// Placeholder until the SIWAServer work lands.
