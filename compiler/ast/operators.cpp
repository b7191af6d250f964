// SPDX-FileCopyrightText: 2026 The Brook authors
// SPDX-License-Identifier: MIT
#include "ast/operators.hpp"

namespace brcc {

std::string_view spelling(UnaryOp op) {
    switch (op) {
    case UnaryOp::Plus:
        return "+";
    case UnaryOp::Minus:
        return "-";
    case UnaryOp::Not:
        return "!";
    case UnaryOp::BitNot:
        return "~";
    case UnaryOp::PreInc:
    case UnaryOp::PostInc:
        return "++";
    case UnaryOp::PreDec:
    case UnaryOp::PostDec:
        return "--";
    }
    return "?";
}

std::string_view spelling(BinaryOp op) {
    switch (op) {
    case BinaryOp::Add:
        return "+";
    case BinaryOp::Sub:
        return "-";
    case BinaryOp::Mul:
        return "*";
    case BinaryOp::Div:
        return "/";
    case BinaryOp::Rem:
        return "%";
    case BinaryOp::Shl:
        return "<<";
    case BinaryOp::Shr:
        return ">>";
    case BinaryOp::Less:
        return "<";
    case BinaryOp::Greater:
        return ">";
    case BinaryOp::LessEqual:
        return "<=";
    case BinaryOp::GreaterEqual:
        return ">=";
    case BinaryOp::Equal:
        return "==";
    case BinaryOp::NotEqual:
        return "!=";
    case BinaryOp::BitAnd:
        return "&";
    case BinaryOp::BitOr:
        return "|";
    case BinaryOp::BitXor:
        return "^";
    case BinaryOp::LogicalAnd:
        return "&&";
    case BinaryOp::LogicalOr:
        return "||";
    case BinaryOp::Comma:
        return ",";
    }
    return "?";
}

std::string_view spelling(AssignOp op) {
    switch (op) {
    case AssignOp::Assign:
        return "=";
    case AssignOp::Add:
        return "+=";
    case AssignOp::Sub:
        return "-=";
    case AssignOp::Mul:
        return "*=";
    case AssignOp::Div:
        return "/=";
    case AssignOp::Rem:
        return "%=";
    case AssignOp::Shl:
        return "<<=";
    case AssignOp::Shr:
        return ">>=";
    case AssignOp::BitAnd:
        return "&=";
    case AssignOp::BitOr:
        return "|=";
    case AssignOp::BitXor:
        return "^=";
    }
    return "?";
}

BinaryOp compound_operator(AssignOp op) {
    switch (op) {
    case AssignOp::Assign:
    case AssignOp::Add:
        return BinaryOp::Add;
    case AssignOp::Sub:
        return BinaryOp::Sub;
    case AssignOp::Mul:
        return BinaryOp::Mul;
    case AssignOp::Div:
        return BinaryOp::Div;
    case AssignOp::Rem:
        return BinaryOp::Rem;
    case AssignOp::Shl:
        return BinaryOp::Shl;
    case AssignOp::Shr:
        return BinaryOp::Shr;
    case AssignOp::BitAnd:
        return BinaryOp::BitAnd;
    case AssignOp::BitOr:
        return BinaryOp::BitOr;
    case AssignOp::BitXor:
        return BinaryOp::BitXor;
    }
    return BinaryOp::Add;
}

std::string_view operation_spelling(AssignOp op) {
    const std::string_view assignment = spelling(op);
    return assignment.substr(0, assignment.size() - 1);
}

} // namespace brcc
