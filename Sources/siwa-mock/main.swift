print("siwa-mock: not built yet")
