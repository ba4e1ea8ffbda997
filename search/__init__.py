"""fabricsim-search: goal-seeking studies on the sweep runner's machinery (docs/guide.md, "Searches")."""
