SELECT a,b
FROM orders
where id = 1
