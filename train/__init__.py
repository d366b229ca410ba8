"""Training and evaluation for goldrush-env: one script per algorithm or tool (``python -m goldrush_train.NAME``)
over a small library they share (``cli``, ``evaluation``, ``plots``, ``decisions``, ``network``...)."""
