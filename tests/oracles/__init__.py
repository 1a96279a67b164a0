"""Independent reference implementations used to check the project's engine."""
