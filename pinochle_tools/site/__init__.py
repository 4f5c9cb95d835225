"""The static sites: the conformance site of reports (``report_site``), the spec as a rulebook
(``spec_site``), from reports read by ``reports`` and pages made by ``html``."""

from .folder import SiteFolderError, clear_site
from .report_site import build_site
from .reports import EngineRun, ReportError, load_run, load_runs
from .spec_site import build_spec_site

__all__ = [
    "EngineRun",
    "ReportError",
    "SiteFolderError",
    "build_site",
    "build_spec_site",
    "clear_site",
    "load_run",
    "load_runs",
]
