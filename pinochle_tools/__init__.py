"""The offline back ends of the ``pinochle`` command: the report and spec sites, the suite as
data (export, scenario capture), one case at a time, the rule coverage and variants table.

Below the face (``pinochle_cli`` imports it) and above the runner: it reads specdata, drives
engines through ``pinochle_adapters.client`` and stands on ``pinochle_judge`` (the cases and the
comparison); the plugin never imports it, so pytest loads none of it, and only
``scenario_capture`` (which runs scenarios) imports pytest.
"""
