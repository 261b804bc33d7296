"""Print docker-compose.yml with each service's networking replaced for a bridge-less CI engine.

Usage: host_network.py BASE.yml OVERRIDE.yml > merged.yml

Compose cannot combine `network_mode: host` with `networks:` (the appleid.apple.com alias) or `ports:`,
and an override file cannot delete keys, so this drops `networks`, `ports` and `build` from the services
the override names, then applies the override (environment merged key by key, other keys replaced).
Variables like ${SIWA_CI_PORT} are left for docker-compose to substitute.
"""

import sys

import yaml


def main(base_path: str, override_path: str) -> None:
    with open(base_path) as f:
        base = yaml.safe_load(f)
    with open(override_path) as f:
        override = yaml.safe_load(f)
    for name, changes in override.get("services", {}).items():
        service = base["services"][name]
        for key in ("networks", "ports", "build"):
            service.pop(key, None)
        for key, value in changes.items():
            if key == "environment":
                service.setdefault("environment", {}).update(value)
            else:
                service[key] = value
    yaml.safe_dump(base, sys.stdout, sort_keys=False)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
