import type { Plugin } from 'vite';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MODEL_FILE = /^[\w.-]+\.(onnx|json)$/;

/**
 * The shipped models (`models/*.onnx` and their `.json` sidecars) are served at
 * `<base>models/<file>`: from `modelsDir` in dev, copied into the build otherwise, where the
 * service worker precaches them with the rest of the app.
 */
export function shippedModels(modelsDir: string): Plugin {
  const files = (): string[] => (existsSync(modelsDir) ? readdirSync(modelsDir).filter((f) => MODEL_FILE.test(f)).sort() : []);
  return {
    name: 'rollcall:shipped-models',
    configureServer(server) {
      server.middlewares.use('/models', (req, res, next) => {
        const file = decodeURIComponent((req.url ?? '').split('?')[0] ?? '').replace(/^\//, '');
        const path = join(modelsDir, file);
        if (!MODEL_FILE.test(file) || !existsSync(path)) return next();
        res.setHeader('Content-Type', file.endsWith('.json') ? 'application/json' : 'application/octet-stream');
        res.setHeader('Content-Length', statSync(path).size);
        createReadStream(path).pipe(res);
      });
    },
    generateBundle() {
      for (const file of files()) {
        this.emitFile({ type: 'asset', fileName: `models/${file}`, source: readFileSync(join(modelsDir, file)) });
      }
    },
  };
}
