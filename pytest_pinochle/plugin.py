"""The plugin's entry point (``pytest11``): options, the engine fixture and the registered parts."""
