// The game page's error texts are every page's (../errors.ts).
export { errorText } from "../errors";
