package main

import "fmt"

func main() {
	name := "world"
	fmt.Printf("hello %d\n", name)
	var unused = 1
	_ = unused
	if true == true {
		fmt.Println("always")
	}
}
