"""The claim checks: each source's claim about the game (a statement a source makes, not a
rule) checked against the simulation and the exact solver, with the figures the claims page
shows (:mod:`generator.claims.claim_checks`); the central rosette's worth, exactly, is
:mod:`generator.claims.rosette_worth` and :mod:`generator.claims.holder_wins`."""
