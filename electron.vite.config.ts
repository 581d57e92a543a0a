import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // Worker threads: each is started from `<name>.js` beside index.js (core/os/module-worker.ts).
          'search-worker': resolve('src/core/agent/tools/search-worker.ts'),
          'retention-worker': resolve('src/core/rewind/retention-worker.ts')
        }
      }
    }
  },
  preload: {
    // A sandboxed preload may require nothing but electron, so it is one self-contained CJS file.
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' }
      }
    }
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves bundles unminified; the renderer is also served over HTTP, so minify it.
      minify: true,
      // One bundle on purpose (React + React Flow, ~540 kB): the app loads from disk or loopback.
      chunkSizeWarningLimit: 800,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } }
    }
  }
})
