"""Floor 4, the spec models that know no engine (spec parts, their error translation), the
lowering context handed to engines and the view of a spec it carries (specview.py)."""
