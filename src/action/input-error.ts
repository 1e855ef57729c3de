/** A wrong or missing action input; the message names the input and what to set. */
export class InputError extends Error {
  constructor(
    readonly input: string,
    message: string
  ) {
    super(`Input '${input}': ${message}`)
    this.name = 'InputError'
  }
}
