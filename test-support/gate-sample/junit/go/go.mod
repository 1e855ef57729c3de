module example.com/junit

go 1.19
