// SPDX-License-Identifier: MIT
pragma solidity ^0.8.37;

/// @title PlayMoney identity registry
/// @notice A minimal soulbound ERC-721: one token per player or agent identity. Only the owner
/// (the deployer: the service's registrar account) mints, with token ids the service chooses.
/// Tokens never move: every transfer and approval reverts with IdentityIsSoulbound.
contract IdentityRegistry {
    /// @notice The caller is not the registry's owner, the only account that may mint.
    error NotOwner(address caller);
    /// @notice Tokens cannot be minted to, or counted for, the zero address.
    error ZeroAddress();
    /// @notice The token id is already minted.
    error TokenExists(uint256 tokenId);
    /// @notice The token id was never minted.
    error NonexistentToken(uint256 tokenId);
    /// @notice Identity tokens cannot be transferred or approved.
    error IdentityIsSoulbound();

    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);

    address public immutable owner;
    mapping(uint256 tokenId => address holder) private _holders;
    mapping(address holder => uint256 count) private _balances;

    constructor() {
        owner = msg.sender;
    }

    function name() external pure returns (string memory) {
        return "PlayMoney Identity";
    }

    function symbol() external pure returns (string memory) {
        return "PMID";
    }

    /// @notice ERC-165 (0x01ffc9a7), ERC-721 (0x80ac58cd) and ERC-721 Metadata (0x5b5e139f).
    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x80ac58cd || interfaceId == 0x5b5e139f;
    }

    /// @notice Mints `tokenId` to `to`. Only the owner; reverts on the zero address or an existing id.
    function register(address to, uint256 tokenId) external {
        if (msg.sender != owner) revert NotOwner(msg.sender);
        if (to == address(0)) revert ZeroAddress();
        if (_holders[tokenId] != address(0)) revert TokenExists(tokenId);
        _holders[tokenId] = to;
        _balances[to] += 1;
        emit Transfer(address(0), to, tokenId);
    }

    function exists(uint256 tokenId) external view returns (bool) {
        return _holders[tokenId] != address(0);
    }

    function ownerOf(uint256 tokenId) public view returns (address holder) {
        holder = _holders[tokenId];
        if (holder == address(0)) revert NonexistentToken(tokenId);
    }

    function balanceOf(address holder) external view returns (uint256) {
        if (holder == address(0)) revert ZeroAddress();
        return _balances[holder];
    }

    /// @notice No metadata is published: the empty string, for an existing token.
    function tokenURI(uint256 tokenId) external view returns (string memory) {
        ownerOf(tokenId);
        return "";
    }

    /// @notice Nothing is ever approved.
    function getApproved(uint256 tokenId) external view returns (address) {
        ownerOf(tokenId);
        return address(0);
    }

    function isApprovedForAll(address, address) external pure returns (bool) {
        return false;
    }

    function approve(address, uint256) external pure {
        revert IdentityIsSoulbound();
    }

    function setApprovalForAll(address, bool) external pure {
        revert IdentityIsSoulbound();
    }

    function transferFrom(address, address, uint256) external pure {
        revert IdentityIsSoulbound();
    }

    function safeTransferFrom(address, address, uint256) external pure {
        revert IdentityIsSoulbound();
    }

    function safeTransferFrom(address, address, uint256, bytes calldata) external pure {
        revert IdentityIsSoulbound();
    }
}
