"""Developer scripts, not part of the product's window: the renderers of the pictures in
``docs/images`` and the seeded GUI fuzzer. Each runs the whole window offscreen."""
