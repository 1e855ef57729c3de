export const twice = (n: number): number => n * 2

export const label: string = twice(2)
