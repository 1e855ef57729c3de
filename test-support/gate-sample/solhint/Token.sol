pragma solidity ^0.8.0;

contract Token {
    uint public total;
    function add(uint256 x) public {
        total += x;
    }
}
