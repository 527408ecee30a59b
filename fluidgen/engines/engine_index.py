"""Generated from the engine modules by `python -m fluidgen.engines.engine_table`: do not edit.

What the engine table (engine_table.py) knows of each engine before its module is imported, per
engine name: (module, runtime kind, the other kinds it brings, the key of its section of a spec's
`runtime:`, whether it serves dataset:// references, the health family of its status). Each fact is
declared in the engine module;
tests/engines/test_engine_table.py fails when this file differs from what the modules declare.
"""

INDEX: dict[str, tuple[str, str, tuple[str, ...], str | None, bool, str]] = {
    'alluxio': ('alluxio', 'AlluxioRuntime', (), None, False, 'runtime'),
    'jindo': ('jindo', 'JindoRuntime', (), None, False, 'runtime'),
    'juicefs': ('juicefs', 'JuiceFSRuntime', (), None, False, 'runtime'),
    'efc': ('efc', 'EFCRuntime', (), None, False, 'runtime'),
    'thin': ('thin', 'ThinRuntime', ('ThinRuntimeProfile',), 'thin', True, 'fuse-only'),
    'vineyard': ('vineyard', 'VineyardRuntime', (), None, False, 'runtime'),
    'goosefs': ('goosefs', 'GooseFSRuntime', (), None, False, 'runtime'),
    'cache': ('cacheruntime', 'CacheRuntime', ('CacheRuntimeClass',), 'cacheClass', False, 'components'),
}
