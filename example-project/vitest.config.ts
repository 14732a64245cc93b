import { defineConfig } from 'vitest/config';
import { flow } from 'reqflow/vitest';

export default defineConfig({
  // Every flow.yaml becomes a suite: a describe per resource, a test per operation.
  plugins: [flow()],
  test: {
    // Starts the bundled demo API and sets FLOW_VAR_baseUrl (and, for the demo only, the secrets).
    globalSetup: ['./demo-api/global-setup.js'],
  },
});
