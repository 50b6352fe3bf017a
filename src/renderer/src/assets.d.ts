// Files Vite bundles for the renderer: a sound becomes its URL, a stylesheet a side effect.
declare module '*.wav' {
  const url: string;
  export default url;
}

declare module '*.css';
