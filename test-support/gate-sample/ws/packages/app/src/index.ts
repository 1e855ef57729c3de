export function greet(name: string): string {
  return 'hello ' + name
}

export const count: number = 'three'
