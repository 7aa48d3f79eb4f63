"""Where measurements are kept, for the build's own page cache to share: the committed results
folder (:data:`RESULTS_DIR`, an input of every page) and the cache files written whole with a
checksum (:func:`read_json`, :func:`write_json`: a damaged entry reads as missing)."""

from __future__ import annotations

from generator.sim.cache_files import read_json as read_json
from generator.sim.cache_files import write_json as write_json
from generator.sim.results_files import RESULTS_DIR as RESULTS_DIR
