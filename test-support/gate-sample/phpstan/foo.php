<?php

function foo(): int
{
    return bar();
}
