module package/name

go 1.19
