"""fabricsim-sweep: a study's parameter sweep run point by point, on this
machine or as a Slurm job array, and merged into one database."""
