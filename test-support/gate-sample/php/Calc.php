<?php

class Calc
{
    public static function add(int $a, int $b): int
    {
        return $a - $b;
    }

    public static function half(int $n): int
    {
        return intdiv($n, 0);
    }
}
