"""The offline back ends of the ``pinochle`` command: the report and spec sites, the suite as
data (export, scenario capture), one case at a time, the rule coverage and variants table.

Below the face (``pinochle_cli`` imports it) and above the runner: it reads specdata, drives
engines through ``pinochle_adapters.client`` and reuses ``pytest_pinochle``'s tables and
comparison; the plugin never imports it, so pytest loads none of it.
"""
