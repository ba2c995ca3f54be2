// swagger-ui-dist ships no types. Its index loads the whole UI bundle into Node; this file only names the folder.
declare module 'swagger-ui-dist/absolute-path.js' {
  function getAbsoluteFSPath(): string;
  export = getAbsoluteFSPath;
}
