"""Generated from the engine modules by `python -m fluidgen.engines.engine_table`: do not edit.

What the engine table (engine_table.py) knows of each engine before its module is imported, per
engine name: (module, runtime kind, the other kinds it brings, the key of its section of a spec's
`runtime:`, whether it serves dataset:// references). Each fact is declared in the engine module;
tests/engines/test_engine_table.py fails when this file differs from what the modules declare.
"""

INDEX: dict[str, tuple[str, str, tuple[str, ...], str | None, bool]] = {
    'alluxio': ('alluxio', 'AlluxioRuntime', (), None, False),
    'jindo': ('jindo', 'JindoRuntime', (), None, False),
    'juicefs': ('juicefs', 'JuiceFSRuntime', (), None, False),
    'efc': ('efc', 'EFCRuntime', (), None, False),
    'thin': ('thin', 'ThinRuntime', ('ThinRuntimeProfile',), 'thin', True),
    'vineyard': ('vineyard', 'VineyardRuntime', (), None, False),
    'goosefs': ('goosefs', 'GooseFSRuntime', (), None, False),
    'cache': ('cacheruntime', 'CacheRuntime', ('CacheRuntimeClass',), 'cacheClass', False),
}
