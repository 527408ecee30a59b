"""Floor 4, the spec models that know no engine (spec parts, their error translation) and the
lowering context handed to engines."""
