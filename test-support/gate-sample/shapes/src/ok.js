console.log('total', 1 + 2)
