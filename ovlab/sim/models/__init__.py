"""The model catalogue: the zoo's models built in code (``zoo``: ``ov.zoo``), the trained digits
classifier (``digits``, weights in ``data/digits.npz``), the LLMs' published shapes
(``llm_zoo``, used by ``ovlab.sim.genai``) and the zoo-stem fallback that loads a
zoo model for a missing Open Model Zoo path (``zoo_paths``, called by ``Core.read_model``)."""
