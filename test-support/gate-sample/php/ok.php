<?php

function sub($a, $b)
{
    return $a - $b;
}
