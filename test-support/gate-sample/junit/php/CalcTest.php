<?php
use PHPUnit\Framework\TestCase;

final class CalcTest extends TestCase
{
    public function testAdds(): void
    {
        $this->assertSame(3, 1 + 2 + 1);
    }

    public function testSkipped(): void
    {
        $this->markTestSkipped('not yet');
    }

    public function testPasses(): void
    {
        $this->assertSame(2, 1 + 1);
    }
}
