"""The suite's judgement, without pytest: answers and cases in, verdicts and words out.

The suite as data (``cases``), the one comparison (``compare``), which rule a difference points
at (``blame``, ``diagnosis``), the engine's declared models (``capabilities``), house rules
(``house_rules``), the engine as the cases speak to it (``engines``) and every verdict's wording
(``wording``, ``notation``). It reads specdata and drives engines through
``pinochle_adapters.client``; it never imports pytest, the plugin or the rules, so the plugin, the
fuzzer and the offline tools all stand on it.
"""
