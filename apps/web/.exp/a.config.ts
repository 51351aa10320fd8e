import { defineConfig } from 'vite';
export default defineConfig({ build: { outDir: '/tmp/h15web2/exp-a', emptyOutDir: true, lib: false, rolldownOptions: { input: '.exp/a.tsx', output: { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } } } } });
