import { rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { buildApp, CHROMIUM } from './harness.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
  }
}

/** Builds the app once for every browser test file; removes the build afterwards. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does it).`);
  }
  const distDir = await buildApp();
  project.provide('distDir', distDir);
  return async () => {
    await rm(distDir, { recursive: true, force: true });
  };
}
