import { defineConfig } from 'vite';
export default defineConfig({ build: { outDir: '/tmp/h15web2/exp-b', emptyOutDir: true, lib: false, rolldownOptions: { input: '.exp/b.tsx', output: { codeSplitting: { groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }] } } } } });
