from siwa_mock import main

main()
