"""The validated model: YAML files in ``variants/`` loaded, checked and resolved."""
