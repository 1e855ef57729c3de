let values: Array<Int> = []
