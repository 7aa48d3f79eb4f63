"""Reader-level tests of the built site: a real browser, offline, on the loopback interface."""
