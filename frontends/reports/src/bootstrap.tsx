// Standalone entry for local development; the shell loads the exposed modules instead.
export {};
