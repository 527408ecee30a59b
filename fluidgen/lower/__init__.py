"""Lowering: a parsed spec becomes Kubernetes objects, one stage per module."""
