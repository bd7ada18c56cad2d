"""Reads a JUnit XML file with junitparser and prints what a CI system would show, as JSON on stdout:
each testsuite's name and counts, and each testcase's name, result (passed, failure, error, skipped) and message.
    python summarize.py FILE
"""
import json
import sys

from junitparser import Error, Failure, JUnitXml, Skipped

xml = JUnitXml.fromfile(sys.argv[1])
suites = []
for suite in xml:
    cases = []
    for case in suite:
        result = "passed"
        message = None
        text = None
        for entry in case.result:
            if isinstance(entry, Failure):
                result, message, text = "failure", entry.message, entry.text
            elif isinstance(entry, Error):
                result, message, text = "error", entry.message, entry.text
            elif isinstance(entry, Skipped):
                result, message = "skipped", entry.message
        cases.append({"name": case.name, "classname": case.classname, "result": result, "message": message, "text": text})
    suites.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors, "skipped": suite.skipped, "cases": cases})
json.dump({"suites": suites}, sys.stdout)
