"""Parts of a frame, each a mobject (or a small group of them) with the beats that move it.

- :mod:`~embedviz.render.parts.grid`: ``CellGrid``, the one table (matrix,
  output block, gradients, sums), with ``matrix_grid`` and ``output_grid``.
- :mod:`~embedviz.render.parts.chips`: token chips, which walk along curves
  and become their output rows' tags.
- :mod:`~embedviz.render.parts.strip`: a row strip that lifts off, travels and lands.
- :mod:`~embedviz.render.parts.legend`: the colour legend.
- :mod:`~embedviz.render.parts.captions`: the burned-in caption.
- :mod:`~embedviz.render.parts.printed`: the PyTorch call and its print.
- :mod:`~embedviz.render.parts.lookup`: the lookup family's components and motion.

Sizes and colours come from :mod:`embedviz.render.design`, places from
:mod:`embedviz.render.solver`.
"""
