// bottleneck's light build (the one @octokit/plugin-throttling uses) has the full build's types.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
