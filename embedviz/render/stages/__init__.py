"""Stage modules, one per layout; :func:`embedviz.render.stage.stage_for` imports them."""
