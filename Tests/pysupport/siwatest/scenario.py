"""Values of the built-in scenario (scenarios/default.yaml; docs/CONTRACTS.md lists them)."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
KEYS_DIR = REPO_ROOT / "scenarios" / "keys"
SCENARIOS_DIR = REPO_ROOT / "scenarios"

ISSUER = "https://appleid.apple.com"
TEAM_ID = "ABCDE12345"
KEY_ID = "KEY1234567"
CLIENT_KEY_PATH = KEYS_DIR / "AuthKey_KEY1234567.p8"
WEB_CLIENT = "com.example.web"
NATIVE_CLIENT = "com.example.app"
REDIRECT_URI = "http://127.0.0.1:8000/callback"
ALICE_SUB = "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"
