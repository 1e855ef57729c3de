<?php

class Bar
{
    public function baz(): string { return 1; }
}
