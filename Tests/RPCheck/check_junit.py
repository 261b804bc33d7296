"""Reads rp-check's JUnit XML with real consumers: validates it against Jenkins' JUnit schema (junit-10.xsd,
as pytest's own test suite ships it: $JUNIT_XSD, which Tests/RPCheck/run.sh takes from pytest's sdist on PyPI)
and against junit.xsd (the elements rp-check promises), with xmlschema, and lists the failed cases with
junitparser. Usage: check_junit.py FILE -> prints the names of
failed (accepted) testcases, one a line; exit 1 when the file is invalid or a control failed."""

import os
import sys

import xmlschema
from junitparser import Error, Failure, JUnitXml

here = os.path.dirname(os.path.abspath(__file__))
path = sys.argv[1]
for schema in (os.environ["JUNIT_XSD"], os.path.join(here, "junit.xsd")):
    xmlschema.XMLSchema(schema).validate(path)
failed = []
for suite in JUnitXml.fromfile(path):
    for case in suite:
        for result in case.result:
            if isinstance(result, Error):
                print(f"error in {case.name}: {result.message}", file=sys.stderr)
                sys.exit(1)
            if isinstance(result, Failure):
                failed.append(case.name)
print("\n".join(sorted(failed)))
