<?php

use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/../Calc.php';

final class CalcTest extends TestCase
{
    public function testAdd(): void
    {
        $this->assertSame(4, Calc::add(2, 2));
    }

    public function testHalf(): void
    {
        $this->assertSame(2, Calc::half(4));
    }

    public function testSub(): void
    {
        $this->assertSame(0, Calc::add(0, 0));
    }
}
